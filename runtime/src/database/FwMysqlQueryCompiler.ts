import { MysqlQueryCompiler, type DataTypeNode } from 'kysely'

/** `timestamp`, `timestamp(6)`, `datetime`: a time column, with its precision when given. */
const TIME = /^(?:timestamp|datetime)(?:\((\d+)\))?$/

/**
 * kysely's MySQL compiler, with the column types of a migration mapped so that one migration file gives the same
 * columns on SQLite, PostgreSQL and MySQL: `timestamp` and `datetime` are `datetime(3)` (to the millisecond, as Fw
 * keeps times elsewhere, stored as given in UTC and without MySQL's `timestamp` end in 2038; a precision given is
 * kept), `text` is `longtext` (MySQL's `text` holds 64 KB, SQLite's and PostgreSQL's have no such limit) and a
 * `varchar` without a length, which MySQL refuses, is `varchar(255)`. Every other type is written as given.
 *
 * @example
 * ```ts
 * db.schema.createTable('events').addColumn('at', 'timestamp').compile().sql // create table `events` (`at` datetime(3))
 * ```
 */
export class FwMysqlQueryCompiler extends MysqlQueryCompiler {
  protected override visitDataType(node: DataTypeNode): void {
    const time = TIME.exec(node.dataType)
    if (time) return this.append(`datetime(${time[1] ?? 3})`)
    if (node.dataType === 'text') return this.append('longtext')
    if (node.dataType === 'varchar') return this.append('varchar(255)')
    super.visitDataType(node)
  }
}
