// Objects inserted into an OOXML document (a PDF, a workbook, a packaged
// file in a Word document, a slide or a sheet): the parts its document,
// slide or sheet parts relate to as OLE objects or packages. A package part
// is a document as it is (an embedded .xlsx); an OLE object part is a compound
// file holding the object's file (containers/ole-objects.ts), or a Word,
// Excel or PowerPoint 97-2003 file itself. The workbooks that hold a chart's
// data are the chart's, related to from the chart part, and are not taken.

import { posix } from 'node:path';
import { compoundObject, type EmbeddedFile, isCompoundFile } from '../../containers/ole-objects.ts';
import { SafeZip, type InflateBudget } from '../../containers/zip.ts';
import { relationships } from './ooxml.ts';

const OBJECT_TYPES = new Set(['oleObject', 'package']);

export function packageObjects(bytes: Uint8Array, budget?: InflateBudget): EmbeddedFile[] {
  const zip = new SafeZip(bytes, budget);
  const targets = new Set<string>();
  for (const name of zip.names()) {
    const m = /^(.*\/)?_rels\/([^/]+)\.rels$/.exec(name);
    if (!m || /(^|\/)charts\/$/.test(m[1] ?? '')) continue;
    for (const rel of relationships(zip, `${m[1] ?? ''}${m[2]}`).values()) if (OBJECT_TYPES.has(rel.type) && zip.has(rel.target)) targets.add(rel.target);
  }
  const files: EmbeddedFile[] = [];
  for (const target of [...targets].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    const data = zip.read(target);
    if (!data || data.length === 0) continue;
    files.push(isCompoundFile(data) ? compoundObject(data) : { name: posix.basename(target), bytes: data });
  }
  return files;
}
