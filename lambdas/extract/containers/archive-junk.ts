// What archivers and file managers add to an archive beside the files someone
// meant to send (macOS resource forks and folder settings, Windows thumbnail
// caches): left out wherever an archive's members are read.

/** A member nobody means to submit: `__MACOSX/...`, `.DS_Store`, `Thumbs.db`. */
export const isArchiveJunk = (name: string): boolean => name.startsWith('__MACOSX/') || /(^|\/)\.DS_Store$/.test(name) || /(^|\/)Thumbs\.db$/i.test(name);
