/**
 * One logging set-up for both node processes: {@code System.Logger} in the code, backed by java.util.logging with
 * {@link io.sluice.common.log.LogLineFormatter} (one line a record, ISO-8601 UTC time, level, logger short name),
 * installed once at process start by {@link io.sluice.common.log.Logging}; {@link io.sluice.common.log.AgentErrorLog}
 * reports an agent's repeated error once with a count. May use Agrona and the JDK only.
 */
package io.sluice.common.log;
