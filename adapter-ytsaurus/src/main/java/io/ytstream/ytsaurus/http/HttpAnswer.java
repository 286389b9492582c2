package io.ytstream.ytsaurus.http;

import java.net.http.HttpHeaders;

/**
 * One HTTP/1.1 answer, read whole: its status, headers and body, and the trailers that followed a
 * chunked body (empty otherwise). A YTsaurus proxy sends an error that happens after the body
 * started in the trailers ({@code yt/yt/server/http_proxy/context.cpp}, {@code Finalize}).
 */
public record HttpAnswer(int status, HttpHeaders headers, byte[] body, HttpHeaders trailers) {}
