// apiSchemas.ts joins the schemas of Ferry's two OpenAPI documents: the
// tenant API's (openapi.json -> api.gen.ts) and the internal routes' the
// portal also calls (openapi-internal.json -> api-internal.gen.ts). A
// schema both name is reflected from the same Go type, so the two agree.
import type { components as Public } from './api.gen'
import type { components as Internal } from './api-internal.gen'

export type Schemas = Public['schemas'] & Internal['schemas']
