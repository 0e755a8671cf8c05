/**
 * The controller process: {@link io.sluice.controller.ControllerMain} loads the node config, wires the packages
 * below and runs {@link io.sluice.controller.ControllerAgent}, the one agent thread that owns all state (health,
 * weights, forwarder session, liveness, announcements) in one duty cycle. It never touches packets. The only
 * package that may use all the others; none of them uses it.
 */
package io.sluice.controller;
