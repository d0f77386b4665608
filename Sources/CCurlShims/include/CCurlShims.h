#ifndef CCURLSHIMS_H
#define CCURLSHIMS_H

// Why this shim exists: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. One
// typed forwarder per argument kind; the shim decides nothing.

#include <curl/curl.h>

typedef size_t (*vs_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

CURLcode vs_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode vs_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode vs_curl_set_pointer(CURL *handle, CURLoption option, const void *value);
/// CURLOPT_WRITEFUNCTION, CURLOPT_READFUNCTION or CURLOPT_HEADERFUNCTION.
CURLcode vs_curl_set_callback(CURL *handle, CURLoption option, vs_curl_data_callback callback);

CURLcode vs_curl_info_long(CURL *handle, CURLINFO info, long *value);
CURLcode vs_curl_info_offset(CURL *handle, CURLINFO info, curl_off_t *value);

#endif
