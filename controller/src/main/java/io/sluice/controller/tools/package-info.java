/**
 * Operator command-line tools that talk to a running controller over HTTP: {@code sluice status}, {@code drain},
 * {@code undrain}, {@code set-weight}, {@code reload} ({@link io.sluice.controller.tools.ControllerTool}). May use
 * common's config and {@code operator}'s action token only.
 */
package io.sluice.controller.tools;
