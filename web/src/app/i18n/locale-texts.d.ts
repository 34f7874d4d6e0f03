// One part of one language's texts, cut from its locale file at build time (web/build/locale-texts.ts).
declare module 'virtual:locale-texts/*' {
  type TextTree = { [key: string]: string | TextTree };
  const texts: TextTree;
  export default texts;
}
