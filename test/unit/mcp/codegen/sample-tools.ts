/** Tool snapshots shared by the golden, compile and runtime tests: one per construct the generator must handle. */
import type {McpToolSnapshot} from '../../../../src/mcp/codegen/index.ts';

/** A small server for the golden file: plain, escaped, recursive and primitive-output tools. */
export const smallServerTools: McpToolSnapshot[] = [
  {
    name: 'search-issues',
    title: 'Search issues',
    description: 'Finds issues by query.\nResults are paged.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {type: 'string', description: 'Search text.'},
        state: {enum: ['open', 'closed']},
        labels: {type: 'array', items: {type: 'string'}},
      },
      required: ['query'],
    },
    outputSchema: {
      type: 'object',
      properties: {items: {type: 'array', items: {$ref: '#/$defs/Issue'}}, total: {type: 'integer'}},
      required: ['items'],
      $defs: {
        Issue: {
          type: 'object',
          description: 'One issue.',
          properties: {number: {type: 'integer'}, title: {type: 'string'}, parent: {$ref: '#/$defs/Issue'}},
          required: ['number', 'title'],
        },
      },
    },
  },
  {name: 'get_me', description: 'Who am I?', inputSchema: {type: 'object', properties: {}}},
  {name: 'price$', inputSchema: {type: 'object'}, outputSchema: {type: 'number'}},
];

/** Every construct the compile tests exercise, in one server. */
export const kitchenSinkTools: McpToolSnapshot[] = [
  {name: 'get-me', description: 'No output schema.', inputSchema: {type: 'object', properties: {}}},
  {name: 'price$', inputSchema: {type: 'object'}, outputSchema: {type: 'number'}},
  {name: 'café', inputSchema: {type: 'object'}, outputSchema: {type: 'null'}},
  {name: '🚀launch', inputSchema: {type: 'object'}, outputSchema: {}},
  {name: 'list.items', inputSchema: {type: 'object'}, outputSchema: {type: 'array', items: {type: 'string'}}},
  {
    name: 'tree',
    title: 'Tree */ title',
    description: 'Ends a comment */ console.log("pwned"); /* and more',
    inputSchema: {
      type: 'object',
      properties: {
        root: {$ref: '#/$defs/Node'},
        self: {$ref: '#'},
        legacy: {$ref: '#/definitions/Legacy'},
        'x-y': {type: 'string', description: 'A property */ with a comment end.'},
        'with space': {type: 'integer'},
        '0lead': {type: 'boolean'},
        named: {$ref: '#/$defs/Input'},
        // JSON.parse, as discovery does, so the key is an own property rather than the object's prototype.
        ...JSON.parse('{"__proto__": {"type": "string", "description": "Data, not a prototype."}}'),
      },
      required: ['root'],
      $defs: {
        Node: {
          type: 'object',
          properties: {
            children: {type: 'array', items: {$ref: '#/$defs/Node'}},
            label: {type: ['string', 'null']},
          },
          required: ['children'],
        },
        Input: {type: 'string', description: 'A def named like the root must not collide.'},
      },
      definitions: {Legacy: {anyOf: [{type: 'string'}, {type: 'integer'}]}},
    },
    outputSchema: {
      type: 'object',
      properties: {node: {$ref: '#/$defs/Node'}},
      required: ['node'],
      $defs: {Node: {type: 'object', properties: {id: {type: 'number'}}, required: ['id']}},
    },
  },
  {
    name: 'shapes',
    inputSchema: {
      type: 'object',
      properties: {
        mode: {const: 'fast'},
        level: {enum: [1, 2, 3]},
        maybe: {type: 'string', nullable: true},
        pair: {type: 'array', prefixItems: [{type: 'string'}, {type: 'number'}], items: false, minItems: 2},
        meta: {type: 'object', additionalProperties: {type: 'number'}, properties: {name: {type: 'string'}}},
        headers: {type: 'object', patternProperties: {'^x-': {type: 'string'}}},
        either: {
          oneOf: [{type: 'object', properties: {a: {type: 'string'}}, required: ['a']}, {type: 'null'}],
        },
        both: {
          allOf: [
            {type: 'object', properties: {a: {type: 'string'}}, required: ['a']},
            {type: 'object', properties: {b: {type: 'number'}}, required: ['b']},
          ],
        },
        cycle: {$ref: '#/$defs/A'},
        external: {$ref: 'https://example.com/schema.json'},
      },
      $defs: {
        A: {anyOf: [{$ref: '#/$defs/B'}, {type: 'string'}]},
        B: {anyOf: [{$ref: '#/$defs/A'}, {type: 'number'}]},
      },
    },
    outputSchema: true as unknown as McpToolSnapshot['inputSchema'],
  },
  {name: '__proto__', inputSchema: {type: 'object', properties: {x: {type: 'string'}}, required: ['x']}},
];
