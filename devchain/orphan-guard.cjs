// Preloaded (`node --require`) into the Hardhat node that devchain.mjs spawns: when the process that
// started it dies without stopping it (a test worker killed by SIGKILL, a crashed script), the node
// notices that its parent changed and exits, instead of holding its port forever.
'use strict';

const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000);
timer.unref();
