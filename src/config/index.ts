export {
  hasReferences,
  type ReferenceOptions,
  resolveReferenceMap,
  resolveReferencePath,
  resolveReferences,
} from './references.ts';
