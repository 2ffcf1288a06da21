// openapi-check.mjs validates Ferry's OpenAPI documents with tools
// independent of the Go code that writes them (kin-openapi):
//
//   - the document against the OpenAPI 3.1 schema
//     (@seriousme/openapi-schema-validator);
//   - every example of a request body, a response and a webhook against
//     its schema, with Ajv's JSON Schema 2020-12 validator;
//   - that every request body and every success (2xx) answer with a
//     body has an example.
//
// usage: node frontend/tools/openapi-check.mjs DOCUMENT.json...
// (scripts/openapi.sh prints the documents and runs it; make test runs that).
import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error('usage: node openapi-check.mjs DOCUMENT.json...')
  process.exit(2)
}

// pointer escapes one JSON Pointer segment.
const pointer = (s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1')

// examples yields [where, schema pointer, example] for every media type
// example of doc, following $refs to components.responses.
function* examples(doc) {
  function* content(where, base, c) {
    for (const [media, m] of Object.entries(c ?? {})) {
      if (m.example !== undefined && m.schema) {
        yield [`${where} ${media}`, `${base}/content/${pointer(media)}/schema`, m.example]
      }
    }
  }
  function* operations(prefix, items) {
    for (const [path, item] of Object.entries(items ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        const base = `#/${prefix}/${pointer(path)}/${method}`
        if (op.requestBody) yield* content(`${op.operationId} request`, `${base}/requestBody`, op.requestBody.content)
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          if (!r.$ref) yield* content(`${op.operationId} ${status}`, `${base}/responses/${status}`, r.content)
        }
      }
    }
  }
  yield* operations('paths', doc.paths)
  yield* operations('webhooks', doc.webhooks)
  for (const [name, r] of Object.entries(doc.components?.responses ?? {})) {
    yield* content(`response ${name}`, `#/components/responses/${pointer(name)}`, r.content)
  }
}

// missingExamples yields "operationId request|status" for every request
// body and 2xx answer of doc (operations and webhooks) whose media type
// has no example.
function* missingExamples(doc) {
  for (const items of [doc.paths, doc.webhooks]) {
    for (const item of Object.values(items ?? {})) {
      for (const op of Object.values(item)) {
        const lacking = (c) => Object.values(c ?? {}).some((m) => m.example === undefined && m.examples === undefined)
        if (op.requestBody && lacking(op.requestBody.content)) yield `${op.operationId} request`
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          if (/^2/.test(status) && !r.$ref && lacking(r.content)) yield `${op.operationId} ${status}`
        }
      }
    }
  }
}

let failed = false
for (const file of files) {
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  const validator = new Validator()
  const res = await validator.validate(doc)
  if (!res.valid || validator.version !== '3.1') {
    failed = true
    console.error(`${file}: not a valid OpenAPI 3.1 document (version ${validator.version}):`)
    console.error(JSON.stringify(res.errors, null, 2))
    continue
  }
  // The whole document is registered as one schema so that the
  // examples' schemas resolve #/components/schemas/... as in the document;
  // strict is off because OpenAPI keywords surround the schemas.
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(doc, 'doc')
  let count = 0
  for (const [where, at, example] of examples(doc)) {
    count++
    const validate = ajv.compile({ $ref: `doc${at}` })
    if (!validate(example)) {
      failed = true
      console.error(`${file}: the example of ${where} does not fit its schema:`)
      console.error(JSON.stringify(validate.errors, null, 2))
    }
  }
  for (const where of missingExamples(doc)) {
    failed = true
    console.error(`${file}: ${where} has no example`)
  }
  if (count === 0) {
    failed = true
    console.error(`${file}: no examples found`)
  }
  const ops = Object.values(doc.paths ?? {}).reduce((n, item) => n + Object.keys(item).length, 0)
  console.log(`${file}: valid OpenAPI ${doc.openapi}; ${ops} operations, ${Object.keys(doc.webhooks ?? {}).length} webhooks, ${count} examples fit their schemas`)
}
process.exit(failed ? 1 : 0)
