import asyncio
import os

from ferry_webhooks.client import AsyncFerry


async def main() -> None:
    async with AsyncFerry(os.environ["FERRY_API_KEY"], base_url="https://ferry.example.com") as ferry:
        await ferry.events.create(type="invoice.paid", data={"amount": 4200})
        async for e in ferry.events.all(type="invoice.paid"):
            print(e.id)


if __name__ == "__main__":
    asyncio.run(main())
