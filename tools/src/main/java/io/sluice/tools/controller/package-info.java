/**
 * {@code sluice status}, {@code drain}, {@code undrain}, {@code set-weight} and {@code reload}: HTTP clients of a
 * running controller's operator API; they print what it answers and exit 2 on a usage error.
 */
package io.sluice.tools.controller;
