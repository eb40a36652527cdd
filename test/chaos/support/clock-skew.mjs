// Loaded with `node --import` into a service process: shifts its clock by TALON_TEST_CLOCK_SKEW_MS, so a
// chaos test can run orchestrators whose clocks disagree (leases must not depend on them).
const offset = Number(process.env.TALON_TEST_CLOCK_SKEW_MS ?? 0);
const RealDate = Date;
class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = SkewedDate;
