export { SsrfGuard, type SsrfGuardOptions, type CheckedTarget } from './ssrf-guard.js';
export { displayUrl } from './display-url.js';
export {
  createGuardedFetch,
  type GuardedFetch,
  type GuardedFetchEgress,
  type GuardedFetchOptions,
} from './guarded-fetch.js';
export {
  safeFetch,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  type SafeFetchOptions,
  type SafeFetchResponse,
} from './safe-fetch.js';
export {
  classifyAddress,
  embeddedIpv4,
  ADDRESS_RISKS,
  type AddressRisk,
  type AddressVerdict,
} from './address-classifier.js';
export { normalizeHost, type NormalizedHost } from './host-normalizer.js';
export { CidrAllowlist, type AllowlistEntry } from './cidr-allowlist.js';
export { systemHostLookup, type HostLookup, type ResolvedAddress } from './host-lookup.js';
export { hostMatchesPattern, injectCredentials, type InjectedRequest } from './credential-injector.js';
export type { CredentialGrant } from './credential-grant.js';
export { LeakDetector, MIN_KNOWN_SECRET_LENGTH } from './leak-detector.js';
export type { LeakFinding, LeakScanner } from './leak-scanner.js';
export { LEAK_PATTERNS, type LeakPattern } from './leak-patterns.js';
export {
  EgressScanner,
  knownSecretForms,
  type EgressFinding,
  type EgressScanOptions,
} from './egress-scanner.js';
export { outgoingRequestViews, type OutgoingRequest, type RequestView } from './outgoing-request-views.js';
export { encodedTextViews, MAX_DECODE_ROUNDS } from './encoded-text-views.js';
export {
  LeakPolicy,
  LEAK_DESTINATIONS,
  LEAK_ACTIONS,
  DEFAULT_LEAK_ACTIONS,
  type LeakDestination,
  type LeakAction,
  type LeakDecision,
  type LeakPolicyOptions,
} from './leak-policy.js';
export { sanitizeToolOutput, type SanitizedOutput } from './injection-sanitizer.js';
export { wrapToolOutput } from './tool-output-wrapper.js';
export { SsrfBlockedError, type SsrfBlockedDetails } from './errors/ssrf-blocked-error.js';
export { ResponseTooLargeError } from './errors/response-too-large-error.js';
export { TooManyRedirectsError } from './errors/too-many-redirects-error.js';
export { FetchTimeoutError } from './errors/fetch-timeout-error.js';
export { HostUnresolvedError } from './errors/host-unresolved-error.js';
export { SecretLeakError } from './errors/secret-leak-error.js';
export { createOutputSafety } from './output-safety.js';
export { FetchFailedError } from './errors/fetch-failed-error.js';
export { InsecureCredentialError } from './errors/insecure-credential-error.js';
export {
  checkRegexSafety,
  readRegexSequence,
  DEFAULT_MAX_REGEX_LENGTH,
  MAX_REGEX_GROUP_DEPTH,
  type RegexRefusalReason,
  type RegexSafetyOptions,
  type RegexSafetyVerdict,
} from './regex-safety-guard.js';
export {
  readRegexAtom,
  REGEX_QUANTIFIER,
  RegexShapeRefusal,
  type RegexAtom,
  type RegexSequence,
} from './regex-atoms.js';
