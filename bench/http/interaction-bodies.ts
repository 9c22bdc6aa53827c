/** Snowflakes of the simulated application, guild and channel. */
const APPLICATION = '100000000000000001';
const GUILD = '200000000000000001';
const CHANNEL = '300000000000000001';

/** Members the questions are spread over (each has its own rate-limit budget). */
export const MEMBERS = 2_000;

/** A signed-to-be PING: what Discord sends to check an endpoint, and all the bare endpoint answers. */
export function pingBody(n: number): string {
  return JSON.stringify({ id: snowflake(n), application_id: APPLICATION, type: 1, version: 1 });
}

/** `/ask question:<question>` from member `n % MEMBERS`, shaped as Discord delivers it. */
export function askBody(n: number, question: string): string {
  const user = {
    id: String(500000000000000000n + BigInt(n % MEMBERS)),
    username: `member${n % MEMBERS}`,
    discriminator: '0',
    global_name: null,
    avatar: null,
  };
  return JSON.stringify({
    id: snowflake(n),
    application_id: APPLICATION,
    type: 2,
    token: `bench-token-${n}`,
    version: 1,
    guild_id: GUILD,
    channel_id: CHANNEL,
    member: guildMember(user),
    locale: 'en-US',
    app_permissions: '2248473465835073',
    data: {
      id: '800000000000000001',
      name: 'ask',
      type: 1,
      options: [{ name: 'question', type: 3, value: question }],
    },
  });
}

/** A member with no roles and View Channel, as Discord sends one with a guild interaction. */
function guildMember(user: Record<string, string | null>) {
  return {
    user,
    roles: [],
    permissions: '1024',
    joined_at: '2020-01-01T00:00:00.000Z',
    deaf: false,
    mute: false,
    flags: 0,
  };
}

function snowflake(n: number): string {
  return String(700000000000000000n + BigInt(n));
}

/** An option as Discord sends it with an autocomplete request (`focused` on the one being typed). */
export interface TypedOption {
  name: string;
  value: string;
  focused?: boolean;
}

/** An autocomplete request (type 4) from `userId`, typing `options` of `/command`. */
export function autocompleteBody(n: number, userId: string, command: string, options: TypedOption[]): string {
  return JSON.stringify({
    id: snowflake(n),
    application_id: APPLICATION,
    type: 4,
    token: `bench-token-${n}`,
    version: 1,
    guild_id: GUILD,
    channel_id: CHANNEL,
    member: guildMember({
      id: userId,
      username: 'typist',
      discriminator: '0',
      global_name: null,
      avatar: null,
    }),
    locale: 'en-US',
    data: {
      id: '800000000000000002',
      name: command,
      type: 1,
      options: options.map((option) => ({ type: 3, ...option })),
    },
  });
}
