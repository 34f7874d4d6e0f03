// Hardhat 2 configuration for the local dev chain (see devchain.mjs). Automine by default; with
// DEVCHAIN_BLOCK_TIME_MS > 0, a block every that many milliseconds instead (automine off), like a real chain.
const blockTimeMs = Number(process.env.DEVCHAIN_BLOCK_TIME_MS ?? 0);

module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      mining: blockTimeMs > 0 ? { auto: false, interval: blockTimeMs } : { auto: true },
    },
  },
};
