// PPTX review comments, with who wrote them. A deck keeps them in two forms:
// classic comments (ppt/comments/commentN.xml, p:cm with the text in p:text,
// a numeric authorId into ppt/commentAuthors.xml, and a reply naming its
// parent in p15:threadingInfo/p15:parentCm) and modern threaded ones
// (ppt/comments/modernComment_*.xml, p188:cm with a DrawingML text body, its
// replies in p188:replyLst, authorIds that are GUIDs into ppt/authors.xml).
// Either way a reply is read right after the comment it answers, so a
// thread reads as it was written.

import { child, descendants, elements, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import type { SafeZip } from '../../containers/zip.ts';
import { relationships } from './ooxml.ts';

export interface SlideComment {
  author: string;
  text: string;
}

/** The deck's comment authors by id: classic (numeric) and modern (GUID) ids are kept apart. */
export interface CommentAuthors {
  classic: Map<string, string>;
  modern: Map<string, string>;
}

export function commentAuthors(zip: SafeZip, presentationPart: string): CommentAuthors {
  const rels = [...relationships(zip, presentationPart).values()];
  const partOf = (type: string, usual: string) => rels.find((r) => r.type === type)?.target ?? usual;
  const names = (part: string, element: string) => {
    const root = readXml(zip, part);
    return new Map((root ? elements(root, element) : []).map((a) => [a.attrs.id ?? '', a.attrs.name?.trim() ?? '']));
  };
  return {
    classic: names(partOf('commentAuthors', 'ppt/commentAuthors.xml'), 'cmAuthor'),
    modern: names(partOf('authors', 'ppt/authors.xml'), 'author'),
  };
}

/** The comments on a slide (the comment parts it relates to), each thread's replies after its comment. */
export function slideComments(zip: SafeZip, slideRels: Map<string, { target: string; type: string }>, authors: CommentAuthors, paragraphText: (p: XmlElement) => string): SlideComment[] {
  const out: SlideComment[] = [];
  const bodyText = (el: XmlElement) => {
    const body = child(el, 'txBody');
    return body ? elements(body, 'p').map(paragraphText).join('\n').trim() : '';
  };
  for (const r of slideRels.values()) {
    if (r.type !== 'comments') continue;
    const root = readXml(zip, r.target);
    if (!root) continue;
    const list = elements(root, 'cm');
    const classic = list.filter((cm) => child(cm, 'text') !== undefined);
    out.push(...classicThreads(classic, authors.classic));
    for (const cm of list) {
      if (child(cm, 'text')) continue;
      out.push({ author: authors.modern.get(cm.attrs.authorId ?? '') ?? '', text: bodyText(cm) });
      for (const reply of descendants(cm, 'reply')) out.push({ author: authors.modern.get(reply.attrs.authorId ?? '') ?? '', text: bodyText(reply) });
    }
  }
  return out.filter((c) => c.text !== '');
}

/** Classic comments in stored order, each reply moved after the comment it names as its parent (and that comment's earlier replies). */
function classicThreads(list: XmlElement[], names: Map<string, string>): SlideComment[] {
  const key = (authorId: string | undefined, idx: string | undefined) => `${authorId ?? ''}/${idx ?? ''}`;
  const present = new Set(list.map((cm) => key(cm.attrs.authorId, cm.attrs.idx)));
  const replies = new Map<string, XmlElement[]>();
  const roots: XmlElement[] = [];
  for (const cm of list) {
    const parent = descendants(cm, 'parentCm')[0];
    const parentKey = parent && key(parent.attrs.authorId, parent.attrs.idx);
    if (parentKey && parentKey !== key(cm.attrs.authorId, cm.attrs.idx) && present.has(parentKey)) {
      const thread = replies.get(parentKey) ?? [];
      thread.push(cm);
      replies.set(parentKey, thread);
    } else roots.push(cm);
  }
  const out: SlideComment[] = [];
  const written = new Set<XmlElement>();
  // Depth first, iteratively: a thread may run as long as the list.
  const write = (first: XmlElement) => {
    const stack = [first];
    while (stack.length > 0) {
      const cm = stack.pop()!;
      if (written.has(cm)) continue;
      written.add(cm);
      out.push({ author: names.get(cm.attrs.authorId ?? '') ?? '', text: textContent(child(cm, 'text')!).trim() });
      const thread = replies.get(key(cm.attrs.authorId, cm.attrs.idx)) ?? [];
      for (let k = thread.length - 1; k >= 0; k--) stack.push(thread[k]!);
    }
  };
  for (const cm of roots) write(cm);
  // Replies whose parents name each other in a ring reach no comment that is none: they follow in stored order.
  for (const cm of list) write(cm);
  return out;
}
