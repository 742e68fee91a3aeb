/**
 * The machinery of the admin dashboards that `fw make:dash` writes: schema introspection (SQLite and
 * PostgreSQL), field kinds and form coercion, secret columns and read-only tables, the listing,
 * search, sort and pagination queries, and the job queue's counts and failed jobs. The generated
 * controllers and views call it, so `npm update` delivers its fixes.
 *
 * @example
 * ```ts
 * import { db } from 'fw-runtime'
 * import { Dashboard } from 'fw-runtime/dash'
 *
 * export const dashboard = new Dashboard({ db, hidden: ['audit_log'] })
 * ```
 */
export { Dashboard, type DashboardAbility, type DashboardOptions, type FoundRow, type ListQuery, type Row, type RowList, type Saved } from './dash/Dashboard.js'
export { BOOKKEEPING_TABLES } from './dash/bookkeepingTables.js'
export { introspect, kindOf, type Column, type IntrospectOptions, type Kind, type Table } from './dash/introspect.js'
export { editableColumns, fieldName, formInput, parseValue, readForm, type FormErrors, type FormInput, type ReadForm } from './dash/readForm.js'
export { queueOverview, retryFailedJob, retryJobOutcome, type FailedJobSummary, type QueueOverview, type RetryOutcome } from './dash/queueOverview.js'
export { isSecretColumn } from './dash/secretColumns.js'
export { systemInfo, type SystemFact } from './dash/systemInfo.js'
