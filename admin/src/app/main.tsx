import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App as AntdApp, ConfigProvider } from 'antd';
import { Shell } from './Shell';
import './styles.css';

// The server puts a fresh nonce in each console page and allows <style> elements only with it
// (Content-Security-Policy); antd's CSS-in-JS writes its styles with it.
const styleNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
createRoot(rootElement).render(
  <StrictMode>
    <ConfigProvider theme={{ token: { colorPrimary: '#ff8a00' } }} csp={{ nonce: styleNonce }}>
      <AntdApp>
        <Shell />
      </AntdApp>
    </ConfigProvider>
  </StrictMode>,
);
