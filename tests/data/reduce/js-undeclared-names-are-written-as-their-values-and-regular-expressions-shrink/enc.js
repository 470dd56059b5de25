// A small encoder in the style of he.js (MIT); written for this test.
(function() {
	var root = module;
	var regexAstral = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
	var regexEscape = /["&'<>`\x00-\x08]/g;
	var hex = function(codePoint) {
		return '&#x' + codePoint.toString(16).toUpperCase() + ';';
	};
	var decimal = function(codePoint) {
		return '&#' + codePoint + ';';
	};
	var encode = function(string) {
		var escape = hex;
		var result = string.replace(regexEscape, function($0) {
			return escape($0.charCodeAt(0));
		});
		result = result.replace(regexAstral, function($0) {
			var high = $0.charCodeAt(0);
			var low = $0.charCodeAt(1);
			var codePoint = (high - 0xD800) * 0x400 + low - 0xDC00 + 0x10000;
			return escape(codePoint);
		});
		return result;
	};
	var api = {
		'encode': encode,
		'decimal': decimal,
		'version': '1.0.0'
	};
	root.exports = api;
}());
