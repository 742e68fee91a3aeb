// What an application uses. Tools and tests find the rest on subpaths: `fw-runtime/testing` (the
// request handler without a server) and `fw-runtime/migrations` (the migration tables' names).
export { Container, type Constructor, type Cradle, type Factory, type Services } from './container/Container.js'
export { HttpError } from './http/HttpError.js'
export { readsBoundModels } from './http/boundModels.js'
export { documented, type MiddlewareDocs, type MiddlewareResponse, type SecurityScheme } from './http/middlewareDocs.js'
export { DEFAULT_BODY_LIMIT, DEFAULT_UPLOAD_LIMIT, Request, type CaptureOptions, type Input, type MatchedRoute } from './http/Request.js'
export { Response, type CookieOptions, type ResponseContent } from './http/Response.js'
export { Route } from './routing/Route.js'
export {
  RouteDefinition,
  type ControllerAction,
  type HandlerResult,
  type Middleware,
  type MiddlewareReference,
  type Next,
  type RouteClosure,
  type RouteHandler,
} from './routing/RouteDefinition.js'
export { defineContract, type ContractResponse, type RouteContract } from './routing/RouteContract.js'
export { openApiDocument, type OpenApiDocument, type OpenApiInfo } from './openapi/openApiDocument.js'
export type { ErrorHandler } from './routing/renderError.js'
export { createLogger, type Logger, type LogFields } from './log/Logger.js'
export type { ResourceOptions } from './routing/resourceActions.js'
export { Router, type DomainGroup, type GroupOptions, type RouterOptions } from './routing/Router.js'
export type { RequestListener } from './server/createRequestHandler.js'
export { PortInUseError, type RunningServer, type ServeOptions } from './server/listen.js'
export { serve } from './server/serve.js'
export { serveNode } from './server/serveNode.js'
export { start } from './server/start.js'
export { appRoot } from './config/appRoot.js'
export { loadEnv } from './config/loadEnv.js'
export { environment, isProduction } from './config/environment.js'
export { createDatabase, DEFAULT_SQLITE_PATH } from './database/createDatabase.js'
export { DatabaseUnavailableError } from './database/DatabaseUnavailableError.js'
export type { DatabaseConfig } from './database/databaseConfig.js'
export { compileQuery, type PreparedQuery } from './database/compileQuery.js'
export { afterCommit, db, transaction } from './database/db.js'
export { factory, ModelFactory, type FactoryContext } from './database/factory.js'
export { currentTimestamp, id, timestamps, type TableStep } from './database/columns.js'
export { Model, type ComparisonOperator, type ModelClass, type ModelOptions, type Page } from './database/Model.js'
export type { ModelQuery, ModelQueryBuilder } from './database/ModelQuery.js'
export type { KeyType } from './database/modelKey.js'
export type { RowOf } from './database/modelTypes.js'
export type { BelongsTo, BelongsToOptions } from './database/relations/BelongsTo.js'
export type { BelongsToMany, BelongsToManyOptions } from './database/relations/BelongsToMany.js'
export type { HasMany } from './database/relations/HasMany.js'
export type { HasOne } from './database/relations/HasOne.js'
export type { HasOptions } from './database/relations/HasOneOrMany.js'
export type { LoadedRow } from './database/relations/relationTypes.js'
export type { Scope } from './database/Scope.js'
export { softDeletes } from './database/softDeletes.js'
export { updateMany, type UpdateManyOptions } from './database/updateMany.js'
export {
  Migrator,
  MigrationError,
  MIGRATIONS_FOLDER,
  type Migration,
  type MigrationInfo,
  type MigrationResult,
  type MigrationRun,
  type MigratorOptions,
} from './database/Migrator.js'
export type { Database, Tables } from './database/Tables.js'
export { sql, Kysely, NoResultError, type Generated, type Insertable, type Selectable, type Updateable, type ColumnType } from 'kysely'
export { escapeHtml, html, raw, SafeHtml } from './view/html.js'
export { serveStatic, type StaticOptions } from './static/serveStatic.js'
export { FileResponse } from './static/FileResponse.js'
export { Encrypter } from './session/Encrypter.js'
export { Session } from './session/Session.js'
export { startSession, type SessionOptions } from './session/startSession.js'
export { verifyCsrfToken, type CsrfOptions } from './session/verifyCsrfToken.js'
export { cors, type CorsOptions } from './middleware/cors.js'
export { secureHeaders, type SecureHeadersOptions } from './middleware/secureHeaders.js'
export { ValidationError, type ValidationMessages } from './http/ValidationError.js'
export { UploadedFile } from './http/UploadedFile.js'
export { unique, type UniqueOptions } from './validation/unique.js'
export { exists, type ExistsOptions } from './validation/exists.js'
export type { DatabaseRule, CheckPayload } from './validation/DatabaseRule.js'
export { ConstraintViolationError, constraintViolation, type ConstraintViolation } from './database/ConstraintViolationError.js'
export { throttle } from './middleware/throttle.js'
export { Limit, type LimitResponse, type RateLimitHeaders } from './ratelimit/Limit.js'
export { RateLimiter, type LimiterCallback, type RateLimitResult } from './ratelimit/RateLimiter.js'
export type { RateLimitCount, RateLimitStore } from './ratelimit/RateLimitStore.js'
export { DatabaseRateLimitStore } from './ratelimit/DatabaseRateLimitStore.js'
export { RedisRateLimitStore } from './ratelimit/RedisRateLimitStore.js'
export { maintenanceMode, type MaintenanceOptions } from './middleware/maintenanceMode.js'
export { checkHealth, type HealthReport, type ServiceState } from './health/checkHealth.js'
