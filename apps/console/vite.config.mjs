import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Everything is bundled into hashed files under assets/: no CDN, no inline script (the CSP forbids it).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
