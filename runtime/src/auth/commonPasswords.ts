/**
 * Passwords of 8 characters or more that lead the published lists of leaked passwords: attackers try them
 * first, against every account. In lower case; `passwordProblem` compares in lower case too.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  `
password password1 password12 password123 password1234 password! passw0rd p@ssw0rd p@ssword pa$$word
passwort motdepasse contrasena contraseña senha123 wachtwoord salasana
12345678 123456789 1234567890 0123456789 987654321 9876543210 87654321 12341234 11223344 12121212
11111111 22222222 33333333 44444444 55555555 66666666 77777777 88888888 99999999 00000000 111111111
1111111111 1234567891 12345678910 123123123 123456123 12344321 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y
q1w2e3r4 q1w2e3r4t5 1qaz2wsx 1qazxsw2 zaq12wsx zaq1zaq1 qwer1234 1234qwer 123qweasd qweasdzxc
qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 asdfghjk asdfghjkl asdf1234 zxcvbnm1 zxcvbnm123
abcd1234 abc12345 abc123456 abcdefgh abcdefg1 a1b2c3d4 aa123456 aa12345678 1a2b3c4d 147258369
159357456 789456123 741852963 963852741 123654789 147852369 qazwsxedc 1qaz2wsx3edc
iloveyou iloveyou1 iloveyou2 iloveu12 loveyou1 lovelove sunshine sunshine1 princess princess1
football football1 baseball baseball1 basketball soccer12 hockey12 welcome1 welcome12 welcome123
trustno1 superman superman1 batman12 spiderman starwars starwars1 pokemon1 computer computer1
internet whatever whatever1 michelle jennifer jessica1 charlie1 jordan23 michael1 mustang1 shadow12
monkey12 dragon12 master12 letmein1 letmein123 freedom1 corvette mercedes ferrari1 butterfly
chocolate sweetheart cookie123 elephant fuckyou1 fuckoff1 asshole1 babygirl babygirl1 lovely12
jesus123 jesuschrist blessed1 godisgood christ12 heaven12 angel123 angelina anthony1 alexander
alexandra victoria benjamin samantha elizabeth charlotte stephanie danielle nicholas jonathan
patricia precious1 scorpion slipknot metallica nirvana1 marlboro 88888888 qwerty11 password2
password3 password01 password11 password99 changeme changeme1 changeme123 default1 default123
secret12 secret123 admin123 admin1234 administrator adminadmin root1234 rootroot toor1234 guest123
test1234 testtest tester12 test12345 temp1234 user1234 username login123 qwertzui qwertz123 azertyui
azerty123 1234abcd 12345abc 12345qwe 12345qwert 123456qwerty 123456abc 123456aa 123456789a
123456789q a123456789 q123456789 1234567a 1234567q aaaaaaaa bbbbbbbb zzzzzzzz xxxxxxxx qqqqqqqq
asdasdasd qweqweqwe zxczxczxc 123abc123 abcabcabc pass1234 pass12345 mypassword mypass123 secret1!
summer2020 summer2021 summer2022 summer2023 summer2024 summer2025 winter2020 winter2021 winter2022
winter2023 winter2024 winter2025 spring2024 autumn2024 january1 february march2024 december1
monday123 sunday12 hello123 hello1234 helloworld hellokitty goodluck goodbye1 nothing1 anything
everything fishing1 football12 liverpool chelsea1 arsenal1 manchester barcelona juventus realmadrid
google123 facebook youtube1 instagram linkedin microsoft windows1 samsung1 iphone12 blackberry
yankees1 cowboys1 steelers eagles12 patriots dolphins lakers24 warriors bulldogs redskins
1password password! qwerty!@ !qaz2wsx !qaz@wsx zaq!2wsx 1qaz!qaz p@$$w0rd p455w0rd pa55word
passpass wordpass letmeinn trustme1 access14 access123 security security1 service1 support1
matthew1 andrew12 joshua12 daniel12 thomas12 robert12 william1 richard1 charles1 christopher
natasha1 jasmine1 ashley12 amanda12 melissa1 nicole12 hannah12 sophie12 rainbow1 sunflower
purple12 orange12 yellow12 banana12 apple123 cherry12 pepper12 ginger12 maggie12 buster12
tigger12 snoopy12 garfield pumpkin1 chicken1 dolphin1 monkey123 dragon123 shadow123 master123
killer12 ninja123 hunter12 hunter123 ranger12 soldier1 matrix12 phoenix1 thunder1 lightning
diamond1 crystal1 silver12 golden12 platinum 1234asdf asdf;lkj asdfjkl; qwerty12345 1qw23er4
zxcvbnma mnbvcxz1 poiuytre lkjhgfds 0987654321 09876543 98765432 76543210 01234567 13579246
24682468 13572468 10203040 11112222 12131415 19871987 19901990 20002000 20202020 12345679
`
    .split(/\s+/)
    .filter((password) => password.length > 0),
)
