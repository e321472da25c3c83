import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server serves dist/ at / (src/http/web-app.ts); in development the API is proxied.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 900 },
  server: { proxy: { '/v2': 'http://127.0.0.1:8080' } },
});
