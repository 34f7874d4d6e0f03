import type { CapacitorConfig } from '@capacitor/cli';

/*
 * The Android package of the member app (issue 16, decision 037). `npm run android:sync` builds the
 * web app and copies it into android/; the Gradle build itself needs the Android SDK (README).
 */
const config: CapacitorConfig = {
  appId: 'com.custos.app',
  appName: 'Custos',
  webDir: 'dist',
  android: {
    // Only https and the app's own scheme; no cleartext traffic.
    allowMixedContent: false,
  },
  plugins: {
    CapacitorUpdater: {
      // The app decides when to update (spec §4: ask, then download); the plugin never checks on its own.
      autoUpdate: false,
      // A new hot bundle must call notifyAppReady within 10 s (select-port.ts APP_READY_TIMEOUT_MS), else it is rolled back.
      appReadyTimeout: 10000,
      // Spec §9: 60 s download time-out.
      responseTimeout: 60,
      // A new APK starts from its own built-in web files, not an older hot bundle.
      resetWhenUpdate: true,
    },
    SplashScreen: {
      launchShowDuration: 1200,
      launchAutoHide: true,
      backgroundColor: '#111111',
      androidScaleType: 'CENTER_CROP',
      showSpinner: false,
    },
    StatusBar: {
      backgroundColor: '#111111',
      style: 'DARK',
      overlaysWebView: false,
    },
  },
};

export default config;
