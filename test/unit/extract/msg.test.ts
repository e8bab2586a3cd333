// Outlook MSG: our reader of MAPI properties (msg-properties.ts) on the
// compound-file reader, on messages built in code (msg-fixture.ts).

import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/index.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { makeCfb } from '../../support/cfb-fixture.ts';
import { makeMsg, type MsgMessage } from '../../support/msg-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('MSG', () => {
  const mail: MsgMessage = {
    subject: 'Quarterly numbers',
    senderName: 'Ann Example',
    senderEmail: 'ann@example.com',
    sent: new Date('2024-03-01T09:30:00Z'),
    html: '<html><body><h1>Numbers</h1><p>See the attached notes.</p><ul><li>up</li><li>down</li></ul></body></html>',
    body: 'Numbers\r\nSee the attached notes.',
    recipients: [
      { name: 'Bob', email: 'bob@example.com', type: 1 },
      { name: 'Cy', email: 'cy@example.com', type: 2 },
      { email: 'dee@example.com', type: 1 },
      { name: 'Ed', email: 'ed@example.com', type: 3 },
    ],
    attachments: [
      { name: 'notes.txt', data: utf8('Attached notes.'), mimeTag: 'text/plain' },
      { name: 'logo.png', data: new Uint8Array([1, 2, 3]), hidden: true },
    ],
  };

  it('writes the headers, the HTML body and each attachment as a section', async () => {
    const result = await extract({ bytes: makeMsg(mail), filename: 'mail.msg', config: markdown });
    expect(result.metadata.format).toBe('msg');
    expect(result.metadata.email).toEqual({
      from: 'Ann Example <ann@example.com>',
      to: 'Bob <bob@example.com>, dee@example.com',
      cc: 'Cy <cy@example.com>',
      bcc: 'Ed <ed@example.com>',
      subject: 'Quarterly numbers',
      date: 'Fri, 01 Mar 2024 09:30:00 GMT',
    });
    expect(result.metadata).toMatchObject({ title: 'Quarterly numbers', author: 'Ann Example <ann@example.com>', created_at: '2024-03-01T09:30:00Z', failed_sections: [] });
    expect(result.content).toBe(
      [
        'From: Ann Example <ann@example.com>\nTo: Bob <bob@example.com>, dee@example.com\nCc: Cy <cy@example.com>\nBcc: Ed <ed@example.com>\nSubject: Quarterly numbers\nDate: Fri, 01 Mar 2024 09:30:00 GMT',
        '# Numbers',
        'See the attached notes.',
        '- up\n- down',
        '## Attachment: notes.txt',
        'Attached notes.',
      ].join('\n\n'),
    );
  });

  it('falls back to the plain-text body, and reads 8-bit strings in the message code page', async () => {
    const result = await extract({ bytes: makeMsg({ subject: 'Grüße', senderName: 'Jürgen', body: 'Hallo zusammen,\r\n\r\nbis bald.', codepage: 1252 }), filename: 'old.msg' });
    expect(result.metadata.email).toEqual({ from: 'Jürgen', subject: 'Grüße' });
    expect(result.content).toBe('From: Jürgen\nSubject: Grüße\n\nHallo zusammen,\n\nbis bald.');
  });

  it('reads an HTML body written in a Windows code page in that code page', async () => {
    const result = await extract({ bytes: makeMsg({ subject: 'Café', html: '<p>Crème brûlée für alle</p>', htmlCodepage: 1252 }), filename: 'menu.msg' });
    expect(result.content).toBe('Subject: Café\n\nCrème brûlée für alle');
  });

  it('extracts an attached Outlook item as a section with its own headers, body and attachments', async () => {
    const forwarded: MsgMessage = {
      subject: 'Original',
      senderName: 'Zoe',
      senderEmail: 'zoe@example.com',
      body: 'The original message.',
      attachments: [{ name: 'inner.txt', data: utf8('Inner attachment.') }],
    };
    const bytes = makeMsg({ subject: 'Fwd: Original', senderEmail: 'ann@example.com', body: 'Forwarding.', attachments: [{ name: 'Original', message: forwarded }] });
    const result = await extract({ bytes, filename: 'fwd.msg', config: markdown });
    expect(result.metadata.failed_sections).toEqual([]);
    expect(result.content).toBe(
      [
        'From: ann@example.com\nSubject: Fwd: Original',
        'Forwarding.',
        '## Attachment: Original',
        'From: Zoe <zoe@example.com>\nSubject: Original',
        'The original message.',
        '## Attachment: Original/inner.txt',
        'Inner attachment.',
      ].join('\n\n'),
    );
    expect(result.chunks.flatMap((c) => c.headings)).toEqual(['Attachment: Original', 'Attachment: Original/inner.txt']);
  });

  it('stops following attached messages past the nesting limit', async () => {
    let message: MsgMessage = { subject: 'Level 4', body: 'deepest' };
    for (let level = 3; level >= 1; level--) message = { subject: `Level ${level}`, body: `at ${level}`, attachments: [{ name: `L${level + 1}`, message }] };
    const result = await extract({ bytes: makeMsg({ subject: 'Top', body: 'top', attachments: [{ name: 'L1', message }] }), filename: 'deep.msg' });
    expect(result.content).toContain('at 3');
    expect(result.content).not.toContain('deepest');
    expect(result.metadata.failed_sections).toEqual([{ name: 'L1/L2/L3/L4', error: 'Refused: documents are nested more than 3 levels deep.' }]);
  });

  it('fails an encrypted e-mail as encrypted', async () => {
    const bytes = makeMsg({ subject: 'Secret', attachments: [{ name: 'smime.p7m', data: new Uint8Array([1]), mimeTag: 'application/pkcs7-mime' }] });
    await expect(extract({ bytes, filename: 'secret.msg' })).rejects.toMatchObject({ code: 'encrypted_file' });
  });

  it('fails a damaged message clearly, saying what to do', async () => {
    const empty = makeCfb([{ name: '__substg1.0_0E1D001F', data: new Uint8Array(0) }]);
    await expect(extract({ bytes: empty, filename: 'empty.msg' })).rejects.toMatchObject({
      code: 'corrupt_file',
      message: 'The MSG e-mail could not be read: it holds no message properties (damaged or not an Outlook message).',
    });
    const cut = makeMsg(mail);
    // Its directory's sector points past the end of the file.
    const truncated = cut.slice(0, cut.length - 1024);
    await expect(extract({ bytes: truncated, filename: 'cut.msg' })).rejects.toMatchObject({
      code: 'corrupt_file',
      message: expect.stringMatching(/^The MSG e-mail could not be read: the file is truncated or damaged \(.*\)\. Upload the complete file, or open it in Office and save it again\.$/),
    });
  });
});
