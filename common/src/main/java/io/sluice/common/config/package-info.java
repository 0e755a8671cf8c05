/**
 * The node config: its model (records per section, {@link io.sluice.common.config.NodeConfig}), the strict YAML
 * reader ({@link io.sluice.common.config.NodeConfigReader} over snakeyaml, one reader per section, every error
 * as file:field:reason in a {@link io.sluice.common.config.ConfigException}) and the checks both processes run
 * before they start ({@link io.sluice.common.config.NodeCheck}: the config against the machine's cores and memory;
 * {@link io.sluice.common.config.NumaLayout} for the NUMA warnings). May use snakeyaml and the file layouts of
 * {@code common.counters} and {@code common.control} (to size them); never a socket, a thread or DPDK.
 */
package io.sluice.common.config;
