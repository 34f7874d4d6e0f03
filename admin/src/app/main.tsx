import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import { createConsoleQueryClient } from '../lib/query/query-client';
import { Shell } from './Shell';
import { nonceScriptCreatedStyles, readStyleNonce } from './style-nonce';
import './styles.css';

const styleNonce = readStyleNonce();
if (styleNonce) nonceScriptCreatedStyles(styleNonce);

const queryClient = createConsoleQueryClient();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
createRoot(rootElement).render(
  <StrictMode>
    <ConfigProvider theme={{ token: { colorPrimary: '#ff8a00' } }} csp={{ nonce: styleNonce }}>
      <AntdApp>
        <QueryClientProvider client={queryClient}>
          <Shell />
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  </StrictMode>,
);
