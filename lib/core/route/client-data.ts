/**
 * Client data typed from the application (issue 27): the record an application stores per
 * client (`setClientData`) declared once as a type (`interface Session { user: string }`), so
 * a handler whose context is `SocketContext<Session>` may set only its keys, with their types,
 * and reads them typed. Without a declaration every key is allowed and reads `unknown`, as
 * before. Types only; pure and portable: no node:* imports.
 */

/** The client data of an application that declared none: any key, values of unknown type. */
export type AnyClientData = { readonly [key: string]: unknown }

/** All of a client's data as `getClientData()` reads it: `unknown` undeclared, else the declared keys set so far. */
export type ClientDataRecord<Data extends object> = AnyClientData extends Data ? unknown : Partial<Data>

/**
 * Reading and writing one client's data, typed by `Data` (the application's declaration;
 * `AnyClientData` by default). Where it is set, a key outside `Data` or a value of another
 * type is a type error; a key never set reads `undefined`.
 *
 * @example
 * interface Session { user: string; role: 'admin' | 'member' }
 * const promote = socketOn('promote', (_data, ctx: SocketContext<Session>) => {
 *   ctx.setClientData('role', 'admin') // 'owner' would not compile
 *   return ctx.getClientData('user') // string | undefined
 * })
 */
export interface ClientDataAccess<Data extends object = AnyClientData> {
  /** Stores a value for this client: a key of `Data`, with its type. */
  setClientData<K extends keyof Data & string>(key: K, value: Data[K]): void
  /** Reads one stored value of this client, `undefined` when it was never set. */
  getClientData<K extends keyof Data & string>(key: K): Data[K] | undefined
  /** Reads all of this client's data, as a record. */
  getClientData(): ClientDataRecord<Data>
}
