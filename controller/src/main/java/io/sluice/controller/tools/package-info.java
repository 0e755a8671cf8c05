/**
 * Operator command-line tools that talk to a running controller: {@code sluice status}, {@code drain},
 * {@code undrain}, {@code set-weight}.
 */
package io.sluice.controller.tools;
