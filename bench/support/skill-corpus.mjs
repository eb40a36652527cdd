// A generated corpus of SKILL.md files shaped like the ones people publish (Agent Skills spec, OpenClaw /
// ClawHub metadata blocks, IronClaw activation, workflow tools, Chinese descriptions), used as distractors
// around the labelled target skills of libs/skills/test/fixtures/selection. Deterministic: the same seed
// and count always give the same skills, so `distractors.json` (the first 500) matches what the benchmark
// generates. Run `node bench/support/skill-corpus.mjs --write` to regenerate that file.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = [
  ['jira', 'Jira', 'issues'],
  ['linear', 'Linear', 'issues'],
  ['salesforce', 'Salesforce', 'leads'],
  ['shopify', 'Shopify', 'orders'],
  ['stripe', 'Stripe', 'payments'],
  ['s3', 'AWS S3', 'buckets'],
  ['gcs', 'Google Cloud Storage', 'objects'],
  ['redis', 'Redis', 'keys'],
  ['mongodb', 'MongoDB', 'collections'],
  ['mysql', 'MySQL', 'tables'],
  ['grafana', 'Grafana', 'dashboards'],
  ['prometheus', 'Prometheus', 'alerts'],
  ['datadog', 'Datadog', 'monitors'],
  ['twilio', 'Twilio', 'text messages'],
  ['telegram', 'Telegram', 'chats'],
  ['whatsapp', 'WhatsApp', 'messages'],
  ['zoom', 'Zoom', 'meetings'],
  ['figma', 'Figma', 'designs'],
  ['trello', 'Trello', 'cards'],
  ['asana', 'Asana', 'tasks'],
  ['airtable', 'Airtable', 'records'],
  ['hubspot', 'HubSpot', 'contacts'],
  ['zendesk', 'Zendesk', 'tickets'],
  ['intercom', 'Intercom', 'conversations'],
  ['dropbox', 'Dropbox', 'files'],
  ['gdrive', 'Google Drive', 'documents'],
  ['confluence', 'Confluence', 'pages'],
  ['gitlab', 'GitLab', 'merge requests'],
  ['bitbucket', 'Bitbucket', 'repositories'],
  ['jenkins', 'Jenkins', 'builds'],
  ['argocd', 'Argo CD', 'applications'],
  ['vault', 'HashiCorp Vault', 'secrets'],
  ['cloudflare', 'Cloudflare', 'DNS records'],
  ['npm', 'npm', 'packages'],
  ['pypi', 'PyPI', 'packages'],
  ['kafka', 'Kafka', 'topics'],
  ['rabbitmq', 'RabbitMQ', 'queues'],
  ['elastic', 'Elasticsearch', 'indices'],
  ['snowflake', 'Snowflake', 'warehouses'],
  ['bigquery', 'BigQuery', 'datasets'],
  ['mailchimp', 'Mailchimp', 'campaigns'],
  ['wordpress', 'WordPress', 'posts'],
  ['ghost', 'Ghost', 'posts'],
  ['reddit', 'Reddit', 'threads'],
  ['bluesky', 'Bluesky', 'posts'],
  ['linkedin', 'LinkedIn', 'posts'],
  ['todoist', 'Todoist', 'tasks'],
  ['evernote', 'Evernote', 'notes'],
  ['feishu', '飞书', '文档'],
  ['dingtalk', '钉钉', '审批'],
  ['wecom', '企业微信', '消息'],
  ['yuque', '语雀', '知识库'],
  ['taobao', '淘宝', '订单'],
  ['bilibili', 'B站', '视频'],
];
const ACTIONS = [
  ['sync', 'Sync {S} {O} with a spreadsheet and keep both sides up to date.'],
  ['export', 'Export {S} {O} to CSV or JSON for analysis.'],
  ['monitor', 'Monitor {S} {O} and alert on unusual changes.'],
  ['search', 'Search {S} {O} by keyword, owner or date.'],
  ['create', 'Create and update {S} {O} from a chat request.'],
  ['digest', 'Summarise recent {S} activity into a weekly digest.'],
  ['webhooks', 'Manage {S} webhooks: register, list and remove endpoints.'],
  ['backup', 'Back up {S} configuration and {O} on a schedule.'],
  ['migrate', 'Migrate {O} from {S} to another workspace with a dry run first.'],
  ['cleanup', 'Find stale {S} {O} and archive them after confirmation.'],
  ['report', 'Build a usage report of {S} {O} with charts for the last month.'],
  ['permissions', 'Audit who can access {S} {O} and flag risky permissions.'],
  ['import', 'Import {O} into {S} from files or another tool.'],
  ['bulk-edit', 'Edit many {S} {O} at once with a reviewed change list.'],
];
const ACTIONS_ZH = [
  ['sync-zh', '同步{S}{O}到表格，保持两边一致。'],
  ['export-zh', '导出{S}{O}为CSV，方便分析。'],
  ['monitor-zh', '监控{S}{O}的变化并发送告警。'],
  ['digest-zh', '把{S}最近的动态整理成每周摘要。'],
  ['search-zh', '按关键词、负责人或日期搜索{S}{O}。'],
];
const EXTRA_WORDS =
  'deploy release review report email calendar meeting backup database logs test build document notes video image audio translate weather music chat invoice payment travel resume contract'.split(
    ' ',
  );
const HEADINGS = [
  '## Setup',
  '## Authentication',
  '## Usage',
  '## Examples',
  '## Limits',
  '## Troubleshooting',
];

/** `count` distractor skills as `{ folder, text }`, deterministic for a seed. */
export function generateDistractors(count, seed = 7) {
  const random = mulberry32(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const out = [];
  const used = new Set();
  for (let i = 0; out.length < count; i++) {
    const service = SERVICES[i % SERVICES.length];
    const zh = random() < 0.2;
    const action = zh ? pick(ACTIONS_ZH) : ACTIONS[Math.floor(i / SERVICES.length) % ACTIONS.length];
    let name = `${service[0]}-${action[0]}`;
    if (used.has(name)) name = `${name}-${Math.floor(i / (SERVICES.length * ACTIONS.length)) + 2}-${i % 97}`;
    if (used.has(name)) continue;
    used.add(name);
    const description = action[1].replace('{S}', service[1]).replace('{O}', service[2]);
    const lines = ['---', `name: ${name}`, `description: ${JSON.stringify(description)}`];
    const dialect = random();
    if (dialect < 0.25) {
      const keywords = [service[0], action[0].replace('-zh', '')];
      if (random() < 0.3) keywords.push(pick(EXTRA_WORDS));
      lines.push(
        'activation:',
        `  keywords: ${JSON.stringify(keywords)}`,
        `  tags: ${JSON.stringify([service[0]])}`,
      );
    } else if (dialect < 0.5) {
      lines.push(
        `metadata: ${JSON.stringify({ openclaw: { emoji: '🔧', requires: { env: [`${service[0].toUpperCase().replace(/-/g, '_')}_TOKEN`] } } })}`,
      );
    } else if (dialect < 0.65) {
      lines.push(`tags: ${JSON.stringify([service[0], pick(EXTRA_WORDS)])}`, 'tools: [http_request]');
    } else if (dialect < 0.75) {
      lines.push('license: MIT', `allowed-tools: Bash(${service[0]}:*) Read`);
    }
    lines.push('---');
    const body = [`# ${service[1]} ${action[0]}`, '', description, ''];
    for (const heading of HEADINGS.slice(0, 2 + Math.floor(random() * 4)))
      body.push(heading, 'Follow the API documentation of the service.', '');
    out.push({ folder: name, text: `${lines.join('\n')}\n${body.join('\n')}` });
  }
  return out;
}

if (process.argv.includes('--write')) {
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(here, '..', '..', 'libs', 'skills', 'test', 'fixtures', 'selection', 'distractors.json');
  writeFileSync(file, `${JSON.stringify(generateDistractors(500), null, 1)}\n`);
  console.log(`wrote ${file}`);
}
