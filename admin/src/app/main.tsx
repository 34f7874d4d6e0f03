import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App as AntdApp, ConfigProvider } from 'antd';
import { Shell } from './Shell';
import './styles.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
createRoot(rootElement).render(
  <StrictMode>
    <ConfigProvider theme={{ token: { colorPrimary: '#ff8a00' } }}>
      <AntdApp>
        <Shell />
      </AntdApp>
    </ConfigProvider>
  </StrictMode>,
);
