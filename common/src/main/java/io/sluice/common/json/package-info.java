/**
 * A strict RFC 8259 JSON reader ({@link io.sluice.common.json.JsonReader}) that refuses what a lenient parser
 * forgives. Depends on the JDK only; its one user today is the controller's ExaBGP message parser.
 */
package io.sluice.common.json;
