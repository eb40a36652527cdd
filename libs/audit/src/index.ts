export { GENESIS_HASH, type AuditRecord, type ChainedAuditRecord } from './audit-record.js';
export {
  AuditChainVerifier,
  auditHashOfBody,
  canonicalAuditBody,
  computeAuditHash,
  verifyAuditChain,
  type AuditChainBreak,
  type AuditVerification,
} from './audit-chain.js';
export { timeOrderedUuid } from './time-ordered-uuid.js';
export { recordTime, recordTimeMs } from './record-time.js';
