/**
 * The machinery of the admin dashboards that `fw make:dash` writes: schema introspection (SQLite and
 * PostgreSQL), field kinds and form coercion, secret columns and read-only tables, and the listing,
 * search, sort and pagination queries. The generated controllers and views call it, so `npm update`
 * delivers its fixes.
 *
 * @example
 * ```ts
 * import { db } from 'fw-runtime'
 * import { Dashboard } from 'fw-runtime/dash'
 *
 * export const dashboard = new Dashboard({ db, hidden: ['audit_log'] })
 * ```
 */
export { Dashboard, type DashboardOptions, type FoundRow, type ListQuery, type Row, type RowList, type Saved } from './Dashboard.js'
export { BOOKKEEPING_TABLES } from './bookkeepingTables.js'
export { introspect, kindOf, type Column, type IntrospectOptions, type Kind, type Table } from './introspect.js'
export { editableColumns, fieldName, formInput, parseValue, readForm, type FormErrors, type FormInput, type ReadForm } from './readForm.js'
export { isSecretColumn } from './secretColumns.js'
