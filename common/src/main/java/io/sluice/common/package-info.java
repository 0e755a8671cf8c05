/**
 * What the forwarder and the controller processes share outside config, counters and control: starting a node
 * process from {@code --config FILE} ({@link io.sluice.common.NodeProcess}), the owner check of a shared-memory
 * file ({@link io.sluice.common.OwnerProcess}), the directories a process made for those files
 * ({@link io.sluice.common.CreatedDirectories}), the {@link io.sluice.common.Vip} value and JSON string literals.
 * May use {@code io.sluice.common.config} and Agrona; nothing of the forwarder, the controller or the tools.
 */
package io.sluice.common;
