package io.ytstream.application;

/**
 * What one writer task of a static table batch tells the driver: the batch transaction it wrote in,
 * the batch, and the rows its nested transaction committed into it.
 */
public record StaticTableTaskReport(String transactionId, long epochId, long rows) {}
