import { describe, expect, it } from 'vitest';
import { parseRichText, richTextToPlain } from '../../src/richtext/index.js';

type Case = [input: string, html: string, text: string];

const cases: Record<string, Case[]> = {
  'the subset': [
    ['plain text', 'plain text', 'plain text'],
    ['', '', ''],
    ['<b>bold</b> plain', '<strong>bold</strong> plain', 'bold plain'],
    ['<strong>bold</strong> plain', '<strong>bold</strong> plain', 'bold plain'],
    ['<i>it</i> and <em>em</em>', '<em>it</em> and <em>em</em>', 'it and em'],
    ['<u>under</u> <s>struck</s>', '<u>under</u> <s>struck</s>', 'under struck'],
    ['<i><b>x</b></i>y', '<strong><em>x</em></strong>y', 'xy'],
    ['<b><i>x</i></b>y', '<strong><em>x</em></strong>y', 'xy'],
    ['a <b>b <i>c <u>d <s>e</s></u></i></b>', 'a <strong>b <em>c <u>d <s>e</s></u></em></strong>', 'a b c d e'],
    ['<b>a</b><b>b</b>c', '<strong>ab</strong>c', 'abc'],
  ],
  'collapsing and empty elements': [
    ['<b><b>x</b></b> y', '<strong>x</strong> y', 'x y'],
    ['<u><u>x</u></u>', '<u>x</u>', 'x'],
    ['<b>a<b>b</b>c</b>d', '<strong>abc</strong>d', 'abcd'],
    ['<b>a<strong>b</strong></b>c', '<strong>ab</strong>c', 'abc'],
    ['<b></b>x<i></i>', 'x', 'x'],
    ['x<b><i><u></u></i></b>', 'x', 'x'],
    ['x<i> </i>', 'x<em> </em>', 'x '],
  ],
  'whole-bold rule': [
    ['<b>Hello <i>you</i></b>', 'Hello <em>you</em>', 'Hello you'],
    ['<b>all</b>', 'all', 'all'],
    ['  <b>all</b>  ', '  all  ', '  all  '],
    ['<b>a</b> <b>b</b>', 'a b', 'a b'],
    ['<strong><em>x</em></strong>', '<em>x</em>', 'x'],
    ['<b>a<br>b</b>', 'a<br>b', 'a\nb'],
    ['<p><b>one</b></p><p><b>two</b></p>', 'one<br>two', 'one\ntwo'],
    ['<b>a&nbsp;</b>&nbsp;', 'a&nbsp;&nbsp;', 'a\u00a0\u00a0'],
    ['<b> </b>', ' ', ' '],
    ['<b>a</b>b', '<strong>a</strong>b', 'ab'],
    ['<b>a</b>.', '<strong>a</strong>.', 'a.'],
  ],
  'attributes and unsupported elements': [
    ['<b onclick="x">a</b>b', '<strong>a</strong>b', 'ab'],
    ['<a href="javascript:alert(1)">link</a>', 'link', 'link'],
    ['see <a href="https://x.test" target="_blank"><b>here</b></a>', 'see <strong>here</strong>', 'see here'],
    ['<span style="color:red">r</span>ed', 'red', 'red'],
    ['<img src=x onerror=alert(1)>', '', ''],
    ['a<img src="x" alt="alt text">b', 'ab', 'ab'],
    ['<font color=red>f</font><code>c</code><mark>m</mark>', 'fcm', 'fcm'],
    ['<del>d</del><strike>s</strike><ins>i</ins>', 'dsi', 'dsi'],
    ['<button>press</button>', 'press', 'press'],
  ],
  'dropped with their content': [
    ['<script>alert(1)</script>hi', 'hi', 'hi'],
    ['<SCRIPT type="text/javascript">alert(1)</SCRIPT>hi', 'hi', 'hi'],
    ['<style>b{color:red}</style>ok', 'ok', 'ok'],
    ['<template><b>t</b></template>ok', 'ok', 'ok'],
    ['<iframe src="x">inner</iframe>ok', 'ok', 'ok'],
    ['<noscript><b>n</b></noscript>ok', 'ok', 'ok'],
    ['<object><b>o</b></object>ok', 'ok', 'ok'],
    ['<textarea><b>t</b></textarea>ok', 'ok', 'ok'],
    ['<select><option>o</option></select>ok', 'ok', 'ok'],
    ['<title>t</title>ok', 'ok', 'ok'],
    ['<svg><text>svg</text><script>alert(1)</script></svg>ok', 'ok', 'ok'],
    ['<math><mi>x</mi></math>ok', 'ok', 'ok'],
    ['<b>x<script>alert(1)</script>y</b>z', '<strong>xy</strong>z', 'xyz'],
    ['<script>unclosed', '', ''],
    ['<<script>script>alert(1)<</script>/script>', '&lt;/script&gt;', '</script>'],
  ],
  'broken markup': [
    ['<b>unclosed', 'unclosed', 'unclosed'],
    ['x<b>unclosed', 'x<strong>unclosed</strong>', 'xunclosed'],
    ['a</i>stray', 'astray', 'astray'],
    ['x<b>a<i>mis</b>nested</i>', 'x<strong>a<em>mis</em></strong><em>nested</em>', 'xamisnested'],
    ['<b>a<p>b</p>c</b>d', '<strong>a<br>b<br>c</strong>d', 'a\nb\ncd'],
    ['<b', '', ''],
    ['a <b', 'a ', 'a '],
    ['a < b > c & d', 'a &lt; b &gt; c &amp; d', 'a < b > c & d'],
    ['<3 and <> and </>', '&lt;3 and &lt;&gt; and ', '<3 and <> and '],
    ['<b/>x', 'x', 'x'],
  ],
  entities: [
    ['&amp;', '&amp;', '&'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '&lt;script&gt;alert(1)&lt;/script&gt;', '<script>alert(1)</script>'],
    ['&lt;b&gt;not bold&lt;/b&gt;', '&lt;b&gt;not bold&lt;/b&gt;', '<b>not bold</b>'],
    ['&#x1F600; &#128512;', '😀 😀', '😀 😀'],
    ['a&nbsp;b', 'a&nbsp;b', 'a\u00a0b'],
    ['&quot;q&quot; &apos;a&apos; "raw"', '"q" \'a\' "raw"', '"q" \'a\' "raw"'],
    ['&copy; &eacute; &hellip;', '© é …', '© é …'],
    ['&bogus; &amp &lt', '&amp;bogus; &amp; &lt;', '&bogus; & <'],
    ['&#0;x', '\ufffdx', '\ufffdx'],
  ],
  'comments and CDATA': [
    ['a<!-- comment -->b', 'ab', 'ab'],
    ['a<!-- <b>x</b> -->b', 'ab', 'ab'],
    ['<![CDATA[x]]>a', 'a', 'a'],
    ['a<!-- unclosed', 'a', 'a'],
    ['<!DOCTYPE html>a', 'a', 'a'],
    ['<?xml version="1.0"?>a', 'a', 'a'],
  ],
  'non-ASCII': [
    ['Café ñ 日本語 😀👍🏽', 'Café ñ 日本語 😀👍🏽', 'Café ñ 日本語 😀👍🏽'],
    ['<b>😀</b>x', '<strong>😀</strong>x', '😀x'],
    ['مرحبا <i>بالعالم</i>', 'مرحبا <em>بالعالم</em>', 'مرحبا بالعالم'],
    ['👨‍👩‍👧 <u>family</u>', '👨‍👩‍👧 <u>family</u>', '👨‍👩‍👧 family'],
  ],
  'line breaks': [
    ['a<br>b', 'a<br>b', 'a\nb'],
    ['a<br/>b<BR>c<br />d', 'a<br>b<br>c<br>d', 'a\nb\nc\nd'],
    ['a</br>b', 'a<br>b', 'a\nb'],
    ['<br clear="all">x', '<br>x', '\nx'],
    ['a<br><br>b', 'a<br><br>b', 'a\n\nb'],
    ['x<b>a<br>b</b>', 'x<strong>a<br>b</strong>', 'xa\nb'],
    ['x<b>a<br></b>', 'x<strong>a</strong><br>', 'xa\n'],
    ['x<b>a</b><br><i>b</i>', 'x<strong>a</strong><br><em>b</em>', 'xa\nb'],
    ['Line1\nLine2', 'Line1<br>Line2', 'Line1\nLine2'],
    ['Line1\r\nLine2\rLine3', 'Line1<br>Line2<br>Line3', 'Line1\nLine2\nLine3'],
    ['a<br>\nb', 'a<br>b', 'a\nb'],
    ['a<br>\n\nb', 'a<br><br>b', 'a\n\nb'],
    ['Hello\n', 'Hello<br>', 'Hello\n'],
  ],
  'block elements': [
    ['<p>one</p><p>two</p>', 'one<br>two', 'one\ntwo'],
    ['<p>a</p>\n<p>b</p>', 'a<br>b', 'a\nb'],
    ['<ul>\n  <li>one</li>\n  <li>two</li>\n</ul>', 'one<br>two', 'one\ntwo'],
    ['<p>\n  Hello\n</p>', 'Hello', 'Hello'],
    ['<div>a</div> <div> b </div>', 'a<br>b', 'a\nb'],
    ['<p>a<br></p><p>b</p>', 'a<br>b', 'a\nb'],
    ['<p>a</p><p><br></p><p>b</p>', 'a<br><br>b', 'a\n\nb'],
    ['<p>a</p><p></p><p>b</p>', 'a<br>b', 'a\nb'],
    ['<h1>Title</h1>text', 'Title<br>text', 'Title\ntext'],
    ['<p><b>Title</b></p><p>body</p>', '<strong>Title</strong><br>body', 'Title\nbody'],
    ['a<hr>b', 'a<br>b', 'a\nb'],
    ['x<table><tr><td>a</td><td>b</td></tr></table>y', 'x<br>a<br>b<br>y', 'x\na\nb\ny'],
    ['<pre>a\n  b</pre>', 'a<br>  b', 'a\n  b'],
    ['<div><div><p>deep</p></div></div>', 'deep', 'deep'],
  ],
  whitespace: [
    ['  lead  and  trail  ', '  lead  and  trail  ', '  lead  and  trail  '],
    ['tab\there', 'tab\there', 'tab\there'],
    ['<b>a</b> <i>b</i>', '<strong>a</strong> <em>b</em>', 'a b'],
    ['<b>a </b>b', '<strong>a </strong>b', 'a b'],
    [' ', ' ', ' '],
    ['\n', '<br>', '\n'],
  ],
};

const rows = Object.entries(cases).flatMap(([group, list]) =>
  list.map(([input, html, text]) => ({ group, input, html, text })),
);

describe('parseRichText', () => {
  it.each(rows)('$group: $input', ({ input, html, text }) => {
    const parsed = parseRichText(input, { supSub: false });
    expect(parsed).toEqual({ html, text });
    expect(parseRichText(parsed.html, { supSub: false })).toEqual(parsed);
    expect(richTextToPlain(parsed.html)).toBe(text);
  });

  const supSub: Array<[input: string, on: string, off: string]> = [
    ['H<sub>2</sub>O', 'H<sub>2</sub>O', 'H2O'],
    ['E=mc<sup>2</sup>', 'E=mc<sup>2</sup>', 'E=mc2'],
    ['x<b>a<sup>2</sup></b>', 'x<strong>a<sup>2</sup></strong>', 'x<strong>a2</strong>'],
    ['<sup><sup>n</sup></sup>x', '<sup>n</sup>x', 'nx'],
    ['<sup><sub>both</sub></sup>', '<sup><sub>both</sub></sup>', 'both'],
    ['<sub class="x">1</sub>', '<sub>1</sub>', '1'],
  ];
  it.each(supSub)('sup/sub: %s', (input, on, off) => {
    for (const [enabled, html] of [
      [true, on],
      [false, off],
    ] as const) {
      const parsed = parseRichText(input, { supSub: enabled });
      expect(parsed.html).toBe(html);
      expect(parseRichText(parsed.html, { supSub: enabled }).html).toBe(html);
    }
  });

  it('survives deeply nested markup without overflowing the stack', () => {
    const depth = 50_000;
    const parsed = parseRichText(`x${'<span>'.repeat(depth)}deep${'</span>'.repeat(depth)}`, { supSub: false });
    expect(parsed.text).toBe('xdeep');
  });
});
