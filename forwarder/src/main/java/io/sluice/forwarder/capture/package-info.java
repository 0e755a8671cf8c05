/**
 * Live capture from a running forwarder ({@code sluice capture}): the shared-memory capture file with one ring per
 * worker ({@link io.sluice.forwarder.capture.CaptureFile}), the filter the tool writes and the workers evaluate
 * ({@link io.sluice.forwarder.capture.CaptureFilter}), the worker's side ({@link
 * io.sluice.forwarder.capture.CaptureTap})
 * and the tool with its pcapng writer. Depends on Agrona only; the workers call in once per duty cycle.
 */
package io.sluice.forwarder.capture;
