/**
 * {@code sluice control}: sends one command or a burst of commands over a forwarder's control channel and
 * prints the answer or the forwarder's state. Uses the common control client.
 */
package io.sluice.tools.control;
