package com.custos.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
