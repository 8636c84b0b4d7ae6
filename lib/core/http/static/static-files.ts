/**
 * `StaticFiles`: the file access `serveStatic` needs from a runtime (the Platform's optional
 * `files` capability, handed to handlers as `ctx.files`): the facts of one path with its
 * links resolved, and a byte range of a file as a stream. Types only. Pure and portable: no
 * node:* imports.
 */
/** What a runtime knows of one path, symbolic links followed. */
export interface FileInfo {
  readonly kind: 'file' | 'directory' | 'other'
  /** The canonical absolute path (every symbolic link resolved, `realpath`). */
  readonly realPath: string
  readonly size: number
  /** The modification time, milliseconds since the epoch. */
  readonly mtimeMs: number
  /** The number of hard links to the file (1 for a file with one name). */
  readonly links: number
}

/** A runtime's file reading, as `serveStatic` uses it. */
export interface StaticFiles {
  /** The facts of `path`, or `undefined` when it does not exist or cannot be read. Never rejects. */
  stat(path: string): Promise<FileInfo | undefined>
  /**
   * Bytes `first` to `last` (inclusive) of the file at `path`, read as they are pulled, in
   * pieces of the runtime's choosing, never the whole file at once. Nothing is opened until
   * the first pull; `return()` on the iterator closes the file (or gives back a kept handle).
   * `version`, when given, is the size and modification time the caller found: a runtime may
   * keep the file open for the next read of that same version.
   */
  read(path: string, first: number, last: number, version?: Pick<FileInfo, 'size' | 'mtimeMs'>): AsyncIterable<Uint8Array>
}
