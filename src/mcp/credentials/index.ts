/** ~/.stratos/credentials.json: versioned records, permissions, file and refresh locks, atomic writes. */
export {
  type CredentialIdentity,
  type CredentialRecord,
  credentialFileVersion,
  identityOf,
  parseCredentialFile,
  sameIdentity,
  serializeCredentialFile,
} from './credential-record.ts';
export {CredentialStore, type CredentialStoreOptions, type PendingRotation} from './credential-store.ts';
export {type FileLockOptions, withFileLock} from './file-lock.ts';
