/** Renders a status report as a fixed-width table, one row per instance. */
export function formatStatusTable(status) {
    const rows = [['SERVICE', 'STATE', 'INSTANCE', 'VERSION', 'LATENCY', 'UPTIME', 'IN-FLIGHT']];
    for (const service of status.services) {
        if (service.instances.length === 0)
            rows.push([service.service, 'down', '-', '-', '-', '-', '-']);
        for (const instance of service.instances) {
            rows.push([
                service.service,
                service.state,
                instance.instanceId,
                instance.version,
                `${instance.latencyMs.toFixed(1)} ms`,
                formatDuration(instance.uptimeMs),
                String(instance.inFlight),
            ]);
        }
    }
    const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
    const lines = rows.map((row) => row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd());
    lines.push('', `checked ${status.checkedAt} in ${status.waitedMs} ms`);
    return lines.join('\n');
}
function formatDuration(ms) {
    const seconds = Math.floor(ms / 1000);
    if (seconds < 60)
        return `${seconds}s`;
    if (seconds < 3600)
        return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
    return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
}
