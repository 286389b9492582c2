package io.ytstream.ports;

/**
 * The clock the protocol runs on: wall time in production, a manual clock in simulation. Core code
 * never reads the wall clock; it is handed times from here.
 */
public interface TimeSource {

  long nowMillis();
}
