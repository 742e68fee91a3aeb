import {
  asClass,
  asFunction,
  asValue,
  createContainer,
  InjectionMode,
  isClass,
  type AwilixContainer,
  type BuildResolver,
} from 'awilix'
import type { Database } from '../database/Tables.js'

export type Constructor<T = object> = new (...args: any[]) => T

/**
 * The services an application registers, for typed injection. Extend it with declaration merging:
 *
 * @example
 * ```ts
 * declare module 'fw-runtime' {
 *   interface Services { mailer: Mailer }
 * }
 * ```
 */
export interface Services {
  /** The application's database (`DATABASE_URL`, else SQLite in `database/database.sqlite`), opened on first use. */
  db: Database
}

/** What a constructor or factory receives: every registered service, resolved on first access. */
export type Cradle = Services & Record<string, unknown>

/** A factory builds a service from the other services it destructures. */
export type Factory<T> = (cradle: Cradle) => T

/**
 * The service container, a thin Laravel-shaped layer over awilix. Constructors and factories
 * receive the cradle and take what they need from it by name:
 *
 * @example
 * ```ts
 * class UserController {
 *   constructor(private readonly deps: { users: UserRepository }) {}
 * }
 * const container = Container.getInstance()
 * container.singleton('users', UserRepository)
 * const controller = container.make(UserController)
 * ```
 */
export class Container {
  private static shared: Container | undefined
  private static readonly providers: ((container: Container) => void)[] = []

  /** The awilix container underneath, for what this class does not cover. */
  readonly awilix: AwilixContainer

  constructor(awilix: AwilixContainer = createContainer({ injectionMode: InjectionMode.PROXY, strict: true })) {
    this.awilix = awilix
  }

  /** The process-wide container (the seed's `Container::getInstance()`). */
  static getInstance(): Container {
    if (!Container.shared) {
      Container.shared = new Container()
      for (const provide of Container.providers) provide(Container.shared)
    }
    return Container.shared
  }

  /**
   * Registers services on the process-wide container, now and whenever it is created anew: how a part
   * of fw-runtime (the database layer's `db`) adds its service without the core knowing it.
   */
  static provide(provider: (container: Container) => void): void {
    Container.providers.push(provider)
    if (Container.shared) provider(Container.shared)
  }

  /** Replaces the process-wide container (or drops it, with no argument): for tests. */
  static setInstance(container?: Container): void {
    Container.shared = container
  }

  /** A new instance on every resolution. */
  bind<T>(name: string, concrete: Constructor<T> | Factory<T>): this {
    this.awilix.register(name, this.resolver(concrete).transient())
    return this
  }

  /** One instance for the life of the process, built on first use. */
  singleton<T>(name: string, concrete: Constructor<T> | Factory<T>): this {
    this.awilix.register(name, this.resolver(concrete).singleton())
    return this
  }

  /** One instance per request scope (see `createScope`). */
  scoped<T>(name: string, concrete: Constructor<T> | Factory<T>): this {
    this.awilix.register(name, this.resolver(concrete).scoped())
    return this
  }

  /** An existing value. */
  instance<T>(name: string, value: T): this {
    this.awilix.register(name, asValue(value))
    return this
  }

  /** Whether a service of that name is registered here or in a parent. */
  has(name: string): boolean {
    return this.awilix.hasRegistration(name)
  }

  /**
   * A registered service by name, or a class built with its dependencies injected
   * (it need not be registered).
   */
  make<T>(target: Constructor<T>): T
  make<T = unknown>(target: string): T
  make<T>(target: Constructor<T> | string): T {
    if (typeof target === 'string') return this.awilix.resolve<T>(target)
    return this.awilix.build(target)
  }

  /** A child container: what it registers stays in it; the request lives in one per request. */
  createScope(): Container {
    return new Container(this.awilix.createScope())
  }

  private resolver<T>(concrete: Constructor<T> | Factory<T>): BuildResolver<T> {
    return isClass(concrete) ? asClass(concrete as Constructor<T>) : asFunction(concrete as Factory<T>)
  }
}
