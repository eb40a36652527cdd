export { GENESIS_HASH, type AuditRecord, type ChainedAuditRecord } from './audit-record.js';
export {
  AuditChainVerifier,
  computeAuditHash,
  verifyAuditChain,
  type AuditChainBreak,
  type AuditVerification,
} from './audit-chain.js';
export { timeOrderedUuid } from './time-ordered-uuid.js';
