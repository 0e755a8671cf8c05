/**
 * Operator actions on backends (drain, undrain, set weight): the pure state of the overrides
 * ({@link io.sluice.controller.operator.BackendWeights}), the request an action becomes, the file that keeps the
 * overrides across controller restarts and the token an action must carry. May use common's config and control
 * commands only.
 */
package io.sluice.controller.operator;
