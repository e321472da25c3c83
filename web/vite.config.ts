import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

// The server serves dist/ at / (src/http/web-app.ts); in development the API is proxied.
// Every text asset is written a second and third time as .br and .gz at build, at the highest
// settings, so the server sends the compressed file as it is and never compresses per request.
export default defineConfig({
  plugins: [
    react(),
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|css|html|svg|json|txt|ico)$/,
      threshold: 0,
      deleteOriginalAssets: false,
    }),
  ],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 900 },
  server: { proxy: { '/v2': 'http://127.0.0.1:8080' } },
});
