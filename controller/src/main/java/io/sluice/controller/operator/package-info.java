/**
 * Operator actions on backends (drain, undrain, set weight): the pure state of the overrides and the file that keeps
 * them across controller restarts.
 */
package io.sluice.controller.operator;
