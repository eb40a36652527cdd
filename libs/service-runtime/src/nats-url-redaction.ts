/** A NATS server list as it may be logged: user and password removed from every URL. */
export function redactNatsUrl(servers: string): string {
  return servers
    .split(',')
    .map((server) => server.trim().replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1'))
    .join(',');
}
