export type { Tool, ToolContext, ToolLogger, CredentialGrant } from './tool.js';
