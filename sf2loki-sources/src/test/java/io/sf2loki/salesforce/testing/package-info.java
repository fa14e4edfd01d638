/** Test doubles shared by the Salesforce client and source tests. */
package io.sf2loki.salesforce.testing;
