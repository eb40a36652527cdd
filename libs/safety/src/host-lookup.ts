import { promises as dns } from 'node:dns';

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Injectable so tests never touch real DNS. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The default: the system resolver (`dns.promises.lookup` with `all: true`), as `net.connect` would use it. */
export const systemHostLookup: HostLookup = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};
