package io.ytstream.inmemory;

/**
 * A fault that has fired, in firing order ({@code sequence} from 1), so tests assert what broke.
 * {@code code} is 0 for unknown-outcome faults, which carry no error code.
 */
public record FiredFault(long sequence, ClusterOperation operation, FaultKind kind, int code) {}
